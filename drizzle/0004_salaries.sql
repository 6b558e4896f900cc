CREATE TABLE `salaries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`employee_id` integer NOT NULL,
	`month` text NOT NULL,
	`status` integer DEFAULT 0 NOT NULL,
	`payment_date` text,
	`category_id` integer,
	`basic_salary` integer DEFAULT 0 NOT NULL,
	`seniority_pay` integer DEFAULT 0 NOT NULL,
	`performance_pay` integer DEFAULT 0 NOT NULL,
	`overtime_pay` integer DEFAULT 0 NOT NULL,
	`bonus` integer DEFAULT 0 NOT NULL,
	`allowance` integer DEFAULT 0 NOT NULL,
	`attendance_deduction` integer DEFAULT 0 NOT NULL,
	`personal_insurance` integer DEFAULT 0 NOT NULL,
	`personal_tax` integer DEFAULT 0 NOT NULL,
	`housing_fund` integer DEFAULT 0 NOT NULL,
	`other_deductions` integer DEFAULT 0 NOT NULL,
	`total_income` integer NOT NULL,
	`total_deductions` integer NOT NULL,
	`net_salary` integer NOT NULL,
	`remarks` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "salaries_status_check" CHECK("salaries"."status" IN (0, 1)),
	CONSTRAINT "salaries_net_check" CHECK("salaries"."net_salary" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `salaries_employee_month_unique` ON `salaries` (`employee_id`,`month`);--> statement-breakpoint
CREATE INDEX `salaries_month_stats_idx` ON `salaries` (`month`,`employee_id`,`net_salary`);--> statement-breakpoint
CREATE INDEX `salaries_status_month_idx` ON `salaries` (`status`,`month`);