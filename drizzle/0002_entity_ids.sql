CREATE TABLE `entity_ids` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `actuals` ADD `product_id` integer;