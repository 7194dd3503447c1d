ALTER TABLE `providers` ADD `last_verified_at` integer;--> statement-breakpoint
ALTER TABLE `providers` ADD `last_verify_ok` integer;--> statement-breakpoint
ALTER TABLE `providers` ADD `last_verify_detail` text;