CREATE TABLE `mqtt_inbox` (
	`txn_id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`request_hash` text NOT NULL,
	`response` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mqtt_inbox_created_idx` ON `mqtt_inbox` (`created_at`);--> statement-breakpoint
CREATE TABLE `outbox_dead` (
	`seq` integer PRIMARY KEY NOT NULL,
	`notification_id` text NOT NULL,
	`type` text NOT NULL,
	`envelope` text NOT NULL,
	`reason` text NOT NULL,
	`reason_code` integer,
	`dead_at` integer NOT NULL
);
