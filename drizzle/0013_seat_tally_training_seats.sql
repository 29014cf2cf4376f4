CREATE TABLE `seat_open_sessions` (
	`seat` text PRIMARY KEY NOT NULL,
	`operator` text NOT NULL,
	`logged_in_at` integer,
	`started_at` integer NOT NULL,
	`tally` text NOT NULL,
	`recent` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `training_seats` (
	`seat` text PRIMARY KEY NOT NULL,
	`since` integer NOT NULL
);
