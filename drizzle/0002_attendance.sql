CREATE TABLE `attendance_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`employee_id` integer NOT NULL,
	`rule_id` integer,
	`kind` text NOT NULL,
	`latitude` real,
	`longitude` real,
	`distance` real,
	`radius` integer NOT NULL,
	`attempted_at` integer NOT NULL,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`rule_id`) REFERENCES `attendance_rules`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `attendance_attempts_time_idx` ON `attendance_attempts` (`attempted_at`);--> statement-breakpoint
CREATE INDEX `attendance_attempts_employee_idx` ON `attendance_attempts` (`employee_id`,`attempted_at`);--> statement-breakpoint
CREATE TABLE `attendance_closed_days` (
	`group_id` integer NOT NULL,
	`work_date` text NOT NULL,
	`closed_at` integer NOT NULL,
	PRIMARY KEY(`group_id`, `work_date`),
	FOREIGN KEY (`group_id`) REFERENCES `attendance_groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `attendance_group_members` (
	`employee_id` integer PRIMARY KEY NOT NULL,
	`group_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`group_id`) REFERENCES `attendance_groups`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `attendance_group_members_group_idx` ON `attendance_group_members` (`group_id`);--> statement-breakpoint
CREATE TABLE `attendance_groups` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`company_id` integer NOT NULL,
	`manager_id` integer,
	`timezone` text,
	`status` integer DEFAULT 1 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`manager_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "attendance_groups_status_check" CHECK("attendance_groups"."status" IN (0, 1))
);
--> statement-breakpoint
CREATE INDEX `attendance_groups_company_idx` ON `attendance_groups` (`company_id`);--> statement-breakpoint
CREATE INDEX `attendance_groups_manager_idx` ON `attendance_groups` (`manager_id`);--> statement-breakpoint
CREATE TABLE `attendance_records` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`employee_id` integer NOT NULL,
	`rule_id` integer,
	`work_date` text NOT NULL,
	`timezone` text NOT NULL,
	`clock_in_time` integer,
	`clock_out_time` integer,
	`clock_in_lat` real,
	`clock_in_lng` real,
	`clock_out_lat` real,
	`clock_out_lng` real,
	`status` integer NOT NULL,
	`work_minutes` integer DEFAULT 0 NOT NULL,
	`late_minutes` integer DEFAULT 0 NOT NULL,
	`early_minutes` integer DEFAULT 0 NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`rule_id`) REFERENCES `attendance_rules`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "attendance_records_status_check" CHECK("attendance_records"."status" BETWEEN 0 AND 4)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `attendance_records_employee_date_unique` ON `attendance_records` (`employee_id`,`work_date`);--> statement-breakpoint
CREATE INDEX `attendance_records_date_idx` ON `attendance_records` (`work_date`);--> statement-breakpoint
CREATE INDEX `attendance_records_status_date_idx` ON `attendance_records` (`status`,`work_date`);--> statement-breakpoint
CREATE INDEX `attendance_records_rule_idx` ON `attendance_records` (`rule_id`);--> statement-breakpoint
CREATE TABLE `attendance_rules` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`group_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`work_start_time` text NOT NULL,
	`work_end_time` text NOT NULL,
	`break_start_time` text,
	`break_end_time` text,
	`late_grace_period` integer DEFAULT 0 NOT NULL,
	`early_grace_period` integer DEFAULT 0 NOT NULL,
	`required_work_hours` real NOT NULL,
	`allowed_late_days` integer DEFAULT 0 NOT NULL,
	`location_required` integer DEFAULT false NOT NULL,
	`allowed_latitude` real,
	`allowed_longitude` real,
	`location_radius` integer DEFAULT 0 NOT NULL,
	`work_days` text NOT NULL,
	`flexible_time` integer DEFAULT false NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`group_id`) REFERENCES `attendance_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "attendance_rules_status_check" CHECK("attendance_rules"."status" IN (0, 1))
);
--> statement-breakpoint
CREATE INDEX `attendance_rules_group_idx` ON `attendance_rules` (`group_id`,`status`);--> statement-breakpoint
CREATE INDEX `attendance_rules_created_idx` ON `attendance_rules` (`created_at`);--> statement-breakpoint
CREATE TABLE `job_leases` (
	`name` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` integer NOT NULL
);
