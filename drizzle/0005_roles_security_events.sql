CREATE TABLE `security_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`kind` text NOT NULL,
	`username` text,
	`address` text,
	`channel` text NOT NULL,
	`detail` text
);
--> statement-breakpoint
CREATE INDEX `security_events_at_idx` ON `security_events` (`at`);--> statement-breakpoint
CREATE INDEX `security_events_kind_idx` ON `security_events` (`kind`);--> statement-breakpoint
ALTER TABLE `users` ADD `role` text DEFAULT 'admin' NOT NULL;