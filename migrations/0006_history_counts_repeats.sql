DROP INDEX `history_domain_timestamp`;--> statement-breakpoint
DROP INDEX `history_timestamp`;--> statement-breakpoint
CREATE INDEX `history_domain_timestamp` ON `history` (`domain_id`,`timestamp`,`status`,`duration_ms`,`ip_address`,`repeat_count`);--> statement-breakpoint
CREATE INDEX `history_timestamp` ON `history` (`timestamp`,`status`,`ip_address`,`repeat_count`);