ALTER TABLE `domains` ADD `addresses` text;--> statement-breakpoint
ALTER TABLE `history` ADD `addresses` text;