ALTER TABLE `reports` ADD `base_url` text;--> statement-breakpoint
ALTER TABLE `tokens` ADD `family` text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE `tokens` SET `family` = `jti`;--> statement-breakpoint
CREATE INDEX `tokens_family_idx` ON `tokens` (`family`);