CREATE TABLE `barcodes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`barcode` text NOT NULL,
	`item_id` integer NOT NULL,
	`level_path` text,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `barcodes_barcode_unique` ON `barcodes` (`barcode`);--> statement-breakpoint
CREATE INDEX `barcodes_item_idx` ON `barcodes` (`item_id`);--> statement-breakpoint
CREATE TABLE `catalogs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`client_catalog_id` text NOT NULL,
	`description` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `catalogs_client_catalog_id_unique` ON `catalogs` (`client_catalog_id`);--> statement-breakpoint
CREATE TABLE `categories` (
	`client_category_id` text PRIMARY KEY NOT NULL,
	`schema_json` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `item_identities` (
	`group_key` text NOT NULL,
	`tuple` text NOT NULL,
	`item_id` integer NOT NULL,
	PRIMARY KEY(`group_key`, `tuple`),
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `item_identities_item_idx` ON `item_identities` (`item_id`);--> statement-breakpoint
CREATE TABLE `item_keys` (
	`attr` text NOT NULL,
	`value` text NOT NULL,
	`item_id` integer NOT NULL,
	PRIMARY KEY(`attr`, `value`, `item_id`),
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `item_keys_item_idx` ON `item_keys` (`item_id`);--> statement-breakpoint
CREATE TABLE `items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`client_item_id` text,
	`product_sku` text NOT NULL,
	`client_category_id` text,
	`schema_json` text NOT NULL,
	`own_schema` integer NOT NULL,
	`doc` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `items_sku_idx` ON `items` (`product_sku`);--> statement-breakpoint
CREATE TABLE `pdeas` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`catalog_id` integer NOT NULL,
	`position` integer NOT NULL,
	`field_name` text NOT NULL,
	`field_data_type` text NOT NULL,
	`display_data` text NOT NULL,
	FOREIGN KEY (`catalog_id`) REFERENCES `catalogs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pdeas_catalog_field_idx` ON `pdeas` (`catalog_id`,`field_name`);--> statement-breakpoint
CREATE INDEX `pdeas_field_idx` ON `pdeas` (`field_name`);--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `tokens` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`user_id` integer NOT NULL,
	`jti` text NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tokens_user_idx` ON `tokens` (`user_id`);--> statement-breakpoint
CREATE INDEX `tokens_expires_idx` ON `tokens` (`expires_at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`password_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (`username`);