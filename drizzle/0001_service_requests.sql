CREATE TABLE `actuals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` integer NOT NULL,
	`line_id` integer,
	`state` text NOT NULL,
	`location` text,
	`item_id` integer,
	`quantity` integer NOT NULL,
	`product_json` text NOT NULL,
	`context_json` text NOT NULL,
	`created_on` integer NOT NULL,
	FOREIGN KEY (`request_id`) REFERENCES `service_requests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `actuals_request_idx` ON `actuals` (`request_id`);--> statement-breakpoint
CREATE TABLE `audit_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`audit_line_id` text NOT NULL,
	`audit_row_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`location` text NOT NULL,
	`status` text NOT NULL,
	`expected_qty` integer NOT NULL,
	`count_json` text,
	`updated_on` integer NOT NULL,
	FOREIGN KEY (`audit_row_id`) REFERENCES `audits`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `audit_lines_audit_line_id_unique` ON `audit_lines` (`audit_line_id`);--> statement-breakpoint
CREATE INDEX `audit_lines_audit_idx` ON `audit_lines` (`audit_row_id`);--> statement-breakpoint
CREATE INDEX `audit_lines_location_idx` ON `audit_lines` (`location`);--> statement-breakpoint
CREATE TABLE `audits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`audit_id` text NOT NULL,
	`name` text NOT NULL,
	`param_type` text NOT NULL,
	`param_value_json` text NOT NULL,
	`kq` integer NOT NULL,
	`creator_name` text,
	`status` text NOT NULL,
	`paused_from` text,
	`pps_seat_name` text,
	`user_name` text,
	`created_on` integer NOT NULL,
	`completed_on` integer,
	`updated_on` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `audits_audit_id_unique` ON `audits` (`audit_id`);--> statement-breakpoint
CREATE INDEX `audits_status_idx` ON `audits` (`status`);--> statement-breakpoint
CREATE TABLE `bins` (
	`id` text PRIMARY KEY NOT NULL,
	`state` text NOT NULL,
	`print_state` text DEFAULT 'none' NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `locations` (
	`id` text PRIMARY KEY NOT NULL,
	`msu` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `locations_msu_idx` ON `locations` (`msu`);--> statement-breakpoint
CREATE TABLE `outbox` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`notification_id` text NOT NULL,
	`type` text NOT NULL,
	`envelope` text NOT NULL,
	`created_at` integer NOT NULL,
	`delivered_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_notification_id_unique` ON `outbox` (`notification_id`);--> statement-breakpoint
CREATE INDEX `outbox_undelivered_idx` ON `outbox` (`delivered_at`,`seq`);--> statement-breakpoint
CREATE TABLE `pick_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` integer NOT NULL,
	`external_id` text NOT NULL,
	`position` integer NOT NULL,
	`state` text NOT NULL,
	`expected` integer NOT NULL,
	`picked` integer DEFAULT 0 NOT NULL,
	`short` integer DEFAULT 0 NOT NULL,
	`filters_json` text NOT NULL,
	`attributes_json` text NOT NULL,
	`expectation_ids_json` text NOT NULL,
	`created_on` integer NOT NULL,
	`updated_on` integer NOT NULL,
	FOREIGN KEY (`request_id`) REFERENCES `service_requests`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `pick_lines_request_idx` ON `pick_lines` (`request_id`);--> statement-breakpoint
CREATE TABLE `racks` (
	`msu` text PRIMARY KEY NOT NULL,
	`presented_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`file_name` text,
	`requested_on` integer NOT NULL,
	`generated_on` integer
);
--> statement-breakpoint
CREATE TABLE `request_transactions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` integer NOT NULL,
	`kind` text NOT NULL,
	`body_json` text NOT NULL,
	`outcome` text NOT NULL,
	`created_on` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `reservations` (
	`line_id` integer NOT NULL,
	`location` text NOT NULL,
	`item_id` integer NOT NULL,
	`quantity` integer NOT NULL,
	PRIMARY KEY(`line_id`, `location`, `item_id`),
	FOREIGN KEY (`line_id`) REFERENCES `pick_lines`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `reservations_location_idx` ON `reservations` (`location`);--> statement-breakpoint
CREATE TABLE `seats` (
	`seat` text PRIMARY KEY NOT NULL,
	`user_name` text,
	`logged_in_at` integer
);
--> statement-breakpoint
CREATE TABLE `service_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`external_id` text NOT NULL,
	`type` text NOT NULL,
	`state` text NOT NULL,
	`status` text NOT NULL,
	`request_json` text NOT NULL,
	`attributes_json` text NOT NULL,
	`expectations_json` text,
	`is_pack` integer DEFAULT false NOT NULL,
	`bin_id` text,
	`priority_rank` integer DEFAULT 2 NOT NULL,
	`pick_before` integer,
	`pick_after` integer,
	`execution_json` text,
	`received_on` integer NOT NULL,
	`created_on` integer NOT NULL,
	`updated_on` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `service_requests_type_external_idx` ON `service_requests` (`type`,`external_id`);--> statement-breakpoint
CREATE INDEX `service_requests_state_idx` ON `service_requests` (`type`,`state`);--> statement-breakpoint
CREATE INDEX `service_requests_bin_idx` ON `service_requests` (`bin_id`);--> statement-breakpoint
CREATE TABLE `station_state` (
	`id` integer PRIMARY KEY NOT NULL,
	`mode` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `stock` (
	`location` text NOT NULL,
	`item_id` integer NOT NULL,
	`quantity` integer NOT NULL,
	`reserved` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`location`, `item_id`),
	FOREIGN KEY (`location`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `stock_item_idx` ON `stock` (`item_id`);