CREATE TABLE `pay_profiles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`employee_id` integer NOT NULL,
	`effective_month` text NOT NULL,
	`basic_salary` integer NOT NULL,
	`seniority_pay` integer NOT NULL,
	`allowance` integer NOT NULL,
	`contribution_base` integer NOT NULL,
	`housing_fund_base` integer NOT NULL,
	`scheme_id` integer,
	`bank_account` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "pay_profiles_amounts_check" CHECK("pay_profiles"."basic_salary" >= 0 AND "pay_profiles"."seniority_pay" >= 0 AND "pay_profiles"."allowance" >= 0 AND "pay_profiles"."contribution_base" >= 0 AND "pay_profiles"."housing_fund_base" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pay_profiles_employee_month_unique` ON `pay_profiles` (`employee_id`,`effective_month`);--> statement-breakpoint
CREATE TABLE `pay_settings` (
	`company_id` integer PRIMARY KEY NOT NULL,
	`proration` text DEFAULT 'work_days' NOT NULL,
	`days_per_month_hundredths` integer DEFAULT 2175 NOT NULL,
	`late_per_occurrence` integer DEFAULT 0 NOT NULL,
	`late_per_minute` integer DEFAULT 0 NOT NULL,
	`late_free_occurrences` integer,
	`absence_fixed` integer,
	`overtime_work_day` integer DEFAULT 150 NOT NULL,
	`overtime_rest_day` integer DEFAULT 200 NOT NULL,
	`overtime_statutory_holiday` integer DEFAULT 300 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "pay_settings_proration_check" CHECK("pay_settings"."proration" IN ('work_days', 'calendar_days')),
	CONSTRAINT "pay_settings_days_check" CHECK("pay_settings"."days_per_month_hundredths" > 0)
);
--> statement-breakpoint
CREATE TABLE `payroll_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`month` text NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`settings` text NOT NULL,
	`created_by` integer,
	`computed_at` integer NOT NULL,
	`approved_by` integer,
	`approved_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`approved_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "payroll_runs_status_check" CHECK("payroll_runs"."status" IN ('draft', 'approved'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payroll_runs_company_month_unique` ON `payroll_runs` (`company_id`,`month`);--> statement-breakpoint
CREATE INDEX `payroll_runs_month_idx` ON `payroll_runs` (`month`);--> statement-breakpoint
CREATE TABLE `payslips` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer NOT NULL,
	`employee_id` integer NOT NULL,
	`month` text NOT NULL,
	`profile_id` integer NOT NULL,
	`gross` integer NOT NULL,
	`base_gross` integer NOT NULL,
	`deductions` integer NOT NULL,
	`net` integer NOT NULL,
	`personal_insurance` integer DEFAULT 0 NOT NULL,
	`housing_fund` integer DEFAULT 0 NOT NULL,
	`special_deductions` integer DEFAULT 0 NOT NULL,
	`personal_tax` integer DEFAULT 0 NOT NULL,
	`employer_contributions` integer DEFAULT 0 NOT NULL,
	`lines` text NOT NULL,
	`facts` text NOT NULL,
	`performance_pay` integer DEFAULT 0 NOT NULL,
	`bonus` integer DEFAULT 0 NOT NULL,
	`other_income` integer DEFAULT 0 NOT NULL,
	`other_deductions` integer DEFAULT 0 NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `payroll_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`profile_id`) REFERENCES `pay_profiles`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payslips_run_employee_unique` ON `payslips` (`run_id`,`employee_id`);--> statement-breakpoint
CREATE INDEX `payslips_employee_month_idx` ON `payslips` (`employee_id`,`month`);--> statement-breakpoint
ALTER TABLE `employees` ADD `left_on` text;--> statement-breakpoint
ALTER TABLE `salaries` ADD `payroll_run_id` integer REFERENCES payroll_runs(id);