DROP INDEX `history_domain_timestamp`;--> statement-breakpoint
CREATE INDEX `history_domain_timestamp` ON `history` (`domain_id`,`timestamp`,`status`,`duration_ms`,`ip_address`);--> statement-breakpoint
ALTER TABLE `domains` ADD `address_source` text;--> statement-breakpoint
ALTER TABLE `domains` ADD `pushed_ip` text;--> statement-breakpoint
ALTER TABLE `domains` ADD `pushed_at` integer;