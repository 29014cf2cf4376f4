CREATE TABLE `supervisor_credentials` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`badge_hash` text,
	`pin_hash` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `supervisor_credentials_badge_hash_unique` ON `supervisor_credentials` (`badge_hash`);