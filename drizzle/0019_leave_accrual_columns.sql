ALTER TABLE `leave_ledger` ADD `event` text;--> statement-breakpoint
CREATE UNIQUE INDEX `leave_ledger_event_unique` ON `leave_ledger` (`employee_id`,`type_id`,`event`) WHERE "leave_ledger"."event" IS NOT NULL;--> statement-breakpoint
ALTER TABLE `employees` ADD `work_start_date` text;--> statement-breakpoint
ALTER TABLE `leave_types` ADD `accrual` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE `leave_types` ADD `seniority_tiers` text;--> statement-breakpoint
ALTER TABLE `leave_types` ADD `carry_over_max_half_days` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `leave_types` ADD `carry_over_expires` text;
