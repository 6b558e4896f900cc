CREATE TABLE `attendance_corrections` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`employee_id` integer NOT NULL,
	`work_date` text NOT NULL,
	`timezone` text NOT NULL,
	`clock_in_time` integer,
	`clock_out_time` integer,
	`reason` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`record_id` integer,
	`before` text,
	`after` text,
	`created_by` integer,
	`decided_by` integer,
	`decided_at` integer,
	`decision_note` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`record_id`) REFERENCES `attendance_records`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "attendance_corrections_status_check" CHECK("attendance_corrections"."status" IN ('pending', 'approved', 'rejected', 'cancelled'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `attendance_corrections_pending_unique` ON `attendance_corrections` (`employee_id`,`work_date`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `attendance_corrections_employee_idx` ON `attendance_corrections` (`employee_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `attendance_corrections_status_idx` ON `attendance_corrections` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `attendance_corrections_record_idx` ON `attendance_corrections` (`record_id`);--> statement-breakpoint
ALTER TABLE `attendance_records` ADD `overtime_from` integer;--> statement-breakpoint
ALTER TABLE `attendance_records` ADD `overtime_threshold` integer;--> statement-breakpoint
ALTER TABLE `attendance_records` ADD `overtime_minutes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `attendance_records` ADD `corrected` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `attendance_rules` ADD `overtime_threshold_minutes` integer DEFAULT 30 NOT NULL;