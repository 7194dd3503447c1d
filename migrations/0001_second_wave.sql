CREATE TABLE `notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`options` text NOT NULL,
	`secrets` text NOT NULL,
	`events` text NOT NULL,
	`is_enabled` integer DEFAULT true NOT NULL,
	`last_sent_at` integer,
	`last_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `revoked_tokens` (
	`jti` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `revoked_tokens_expires_at` ON `revoked_tokens` (`expires_at`);--> statement-breakpoint
CREATE TABLE `update_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`key_hash` text NOT NULL,
	`key_tail` text NOT NULL,
	`domain_ids` text,
	`last_used_at` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `update_keys_key_hash_unique` ON `update_keys` (`key_hash`);--> statement-breakpoint
ALTER TABLE `providers` ADD `options` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE `providers` ADD `last_verified_at` integer;--> statement-breakpoint
ALTER TABLE `providers` ADD `last_verify_ok` integer;--> statement-breakpoint
ALTER TABLE `providers` ADD `last_verify_detail` text;--> statement-breakpoint
ALTER TABLE `users` ADD `tokens_valid_after` integer;