CREATE TABLE `seat_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`seat` text NOT NULL,
	`text` text NOT NULL,
	`by` text NOT NULL,
	`sent_at` integer NOT NULL,
	`acknowledged_at` integer,
	`acknowledged_by` text
);
--> statement-breakpoint
CREATE INDEX `seat_messages_open_idx` ON `seat_messages` (`seat`,`acknowledged_at`);--> statement-breakpoint
CREATE TABLE `seat_pauses` (
	`seat` text NOT NULL,
	`source` text NOT NULL,
	`kind` text NOT NULL,
	`by` text NOT NULL,
	`reason` text NOT NULL,
	`since` integer NOT NULL,
	PRIMARY KEY(`seat`, `source`)
);
