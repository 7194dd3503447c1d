CREATE TABLE `revoked_tokens` (
	`jti` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `revoked_tokens_expires_at` ON `revoked_tokens` (`expires_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `tokens_valid_after` integer;