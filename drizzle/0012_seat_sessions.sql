CREATE TABLE `seat_sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`seat` text NOT NULL,
	`operator` text NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer NOT NULL,
	`ended_by` text NOT NULL,
	`lines` integer NOT NULL,
	`units` integer NOT NULL,
	`exceptions` text NOT NULL,
	`idle_ms` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `seat_sessions_ended_idx` ON `seat_sessions` (`ended_at`);