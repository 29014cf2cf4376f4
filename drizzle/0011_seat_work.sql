CREATE TABLE `seat_work` (
	`seat` text NOT NULL,
	`kind` text NOT NULL,
	`work` text NOT NULL,
	`at` integer NOT NULL,
	PRIMARY KEY(`seat`, `kind`)
);
