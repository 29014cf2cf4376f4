CREATE TABLE `screen_operators` (
	`name` text PRIMARY KEY NOT NULL,
	`lang` text,
	`last_login_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `screen_sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`seat` text NOT NULL,
	`kind` text NOT NULL,
	`user_id` integer,
	`key_id` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `screen_sessions_expires_idx` ON `screen_sessions` (`expires_at`);