CREATE TABLE `webhook_cursors` (
	`endpoint_id` text PRIMARY KEY NOT NULL,
	`delivered_seq` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`failing_since` integer,
	`last_status` integer,
	`last_error` text,
	`last_attempt_at` integer,
	`last_delivered_at` integer,
	`replay_next` integer,
	`replay_to` integer,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`types` text,
	`secret` text NOT NULL,
	`enabled` integer NOT NULL,
	`disabled_reason` text,
	`disabled_at` integer,
	`source` text NOT NULL,
	`revision` integer DEFAULT 1 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
