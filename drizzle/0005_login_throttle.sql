ALTER TABLE `login_failures` ADD `address` text;--> statement-breakpoint
CREATE INDEX `login_failures_address_time_idx` ON `login_failures` (`address`,`failed_at`);--> statement-breakpoint
CREATE INDEX `login_failures_time_idx` ON `login_failures` (`failed_at`);