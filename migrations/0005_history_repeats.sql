ALTER TABLE `history` ADD `repeat_count` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `history` ADD `first_timestamp` integer;--> statement-breakpoint
ALTER TABLE `providers` ADD `last_verify_cause` text;