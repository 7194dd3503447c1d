CREATE TABLE `domains` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`provider_id` integer NOT NULL,
	`domain_name` text NOT NULL,
	`record_type` text NOT NULL,
	`external_id` text,
	`config` text NOT NULL,
	`cron_schedule` text,
	`is_enabled` integer DEFAULT true NOT NULL,
	`last_known_ip` text,
	`last_update_status` text,
	`last_checked_at` integer,
	`last_changed_at` integer,
	`next_run_at` integer,
	`failure_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`provider_id`) REFERENCES `providers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `domains_provider_name_type` ON `domains` (`provider_id`,`domain_name`,`record_type`);--> statement-breakpoint
CREATE INDEX `domains_next_run_at` ON `domains` (`next_run_at`);--> statement-breakpoint
CREATE TABLE `history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`domain_id` integer NOT NULL,
	`ip_address` text,
	`previous_ip` text,
	`status` text NOT NULL,
	`message` text NOT NULL,
	`trigger` text NOT NULL,
	`duration_ms` integer NOT NULL,
	`timestamp` integer NOT NULL,
	FOREIGN KEY (`domain_id`) REFERENCES `domains`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `history_domain_timestamp` ON `history` (`domain_id`,`timestamp`,`status`,`duration_ms`);--> statement-breakpoint
CREATE INDEX `history_timestamp` ON `history` (`timestamp`,`status`,`ip_address`);--> statement-breakpoint
CREATE TABLE `providers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`credentials` text NOT NULL,
	`is_enabled` integer DEFAULT true NOT NULL,
	`paused_until` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `providers_name_nocase` ON `providers` (lower("name"));--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`password_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (`username`);