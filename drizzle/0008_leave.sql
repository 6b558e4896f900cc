CREATE TABLE `leave_ledger` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`employee_id` integer NOT NULL,
	`type_id` integer NOT NULL,
	`year` integer NOT NULL,
	`kind` text NOT NULL,
	`half_days` integer NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`request_id` integer,
	`actor_id` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`type_id`) REFERENCES `leave_types`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`request_id`) REFERENCES `leave_requests`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "leave_ledger_kind_check" CHECK("leave_ledger"."kind" IN ('adjustment', 'pending', 'release', 'taken', 'reversal')),
	CONSTRAINT "leave_ledger_half_days_check" CHECK("leave_ledger"."half_days" <> 0)
);
--> statement-breakpoint
CREATE INDEX `leave_ledger_balance_idx` ON `leave_ledger` (`employee_id`,`type_id`,`year`);--> statement-breakpoint
CREATE INDEX `leave_ledger_request_idx` ON `leave_ledger` (`request_id`);--> statement-breakpoint
CREATE TABLE `leave_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`employee_id` integer NOT NULL,
	`type_id` integer NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text NOT NULL,
	`half_day` text,
	`half_days` integer NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`decided_by` integer,
	`decided_at` integer,
	`decision_note` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`type_id`) REFERENCES `leave_types`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "leave_requests_status_check" CHECK("leave_requests"."status" IN ('pending', 'approved', 'rejected', 'cancelled')),
	CONSTRAINT "leave_requests_half_day_check" CHECK("leave_requests"."half_day" IS NULL OR ("leave_requests"."half_day" IN ('am', 'pm') AND "leave_requests"."start_date" = "leave_requests"."end_date")),
	CONSTRAINT "leave_requests_dates_check" CHECK("leave_requests"."start_date" <= "leave_requests"."end_date"),
	CONSTRAINT "leave_requests_half_days_check" CHECK("leave_requests"."half_days" > 0)
);
--> statement-breakpoint
CREATE INDEX `leave_requests_employee_dates_idx` ON `leave_requests` (`employee_id`,`start_date`,`end_date`);--> statement-breakpoint
CREATE INDEX `leave_requests_status_idx` ON `leave_requests` (`status`,`start_date`);--> statement-breakpoint
CREATE INDEX `leave_requests_type_idx` ON `leave_requests` (`type_id`);--> statement-breakpoint
CREATE TABLE `leave_types` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`paid` integer DEFAULT true NOT NULL,
	`requires_balance` integer DEFAULT true NOT NULL,
	`annual_half_days` integer DEFAULT 0 NOT NULL,
	`status` integer DEFAULT 1 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "leave_types_annual_check" CHECK("leave_types"."annual_half_days" >= 0),
	CONSTRAINT "leave_types_status_check" CHECK("leave_types"."status" IN (0, 1))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `leave_types_name_unique` ON `leave_types` (lower("name"));