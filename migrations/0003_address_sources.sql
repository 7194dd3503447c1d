CREATE TABLE `address_sources` (
	`family` integer PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`interface_name` text,
	`urls` text,
	`updated_at` integer NOT NULL
);
