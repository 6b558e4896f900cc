-- CONTRACT §17: contribution schemes, special additional deductions, and what a payslip used of them.
-- pay_profiles is referenced by payslips, so its scheme_id gets triggers for its foreign key, never a rebuild;
-- a scheme_id given before schemes existed named nothing and is cleared.
CREATE TABLE `contribution_scheme_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`scheme_id` integer NOT NULL,
	`code` text NOT NULL,
	`employee_rate` integer NOT NULL,
	`employer_rate` integer NOT NULL,
	`base_min` integer NOT NULL,
	`base_max` integer NOT NULL,
	`employee_fixed` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`scheme_id`) REFERENCES `contribution_schemes`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "contribution_scheme_items_code_check" CHECK("contribution_scheme_items"."code" IN ('pension', 'medical', 'unemployment', 'work_injury', 'maternity', 'housing_fund')),
	CONSTRAINT "contribution_scheme_items_figures_check" CHECK("contribution_scheme_items"."employee_rate" BETWEEN 0 AND 10000 AND "contribution_scheme_items"."employer_rate" BETWEEN 0 AND 10000 AND "contribution_scheme_items"."base_min" >= 0 AND "contribution_scheme_items"."base_min" <= "contribution_scheme_items"."base_max" AND "contribution_scheme_items"."employee_fixed" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contribution_scheme_items_code_unique` ON `contribution_scheme_items` (`scheme_id`,`code`);--> statement-breakpoint
CREATE TABLE `contribution_schemes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`effective_from` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contribution_schemes_name_from_unique` ON `contribution_schemes` (`name`,`effective_from`);--> statement-breakpoint
CREATE TABLE `tax_deductions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`employee_id` integer NOT NULL,
	`year` integer NOT NULL,
	`from_month` text NOT NULL,
	`children_education` integer DEFAULT 0 NOT NULL,
	`infant_care` integer DEFAULT 0 NOT NULL,
	`continuing_education` integer DEFAULT 0 NOT NULL,
	`housing_loan_interest` integer DEFAULT 0 NOT NULL,
	`housing_rent` integer DEFAULT 0 NOT NULL,
	`elderly_support` integer DEFAULT 0 NOT NULL,
	`children` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "tax_deductions_month_check" CHECK(substr("tax_deductions"."from_month", 1, 4) = printf('%04d', "tax_deductions"."year")),
	CONSTRAINT "tax_deductions_caps_check" CHECK("tax_deductions"."children" >= 0 AND "tax_deductions"."children_education" >= 0 AND "tax_deductions"."infant_care" >= 0 AND "tax_deductions"."children_education" + "tax_deductions"."infant_care" <= 200000 * "tax_deductions"."children" AND "tax_deductions"."continuing_education" BETWEEN 0 AND 40000 AND "tax_deductions"."housing_loan_interest" BETWEEN 0 AND 100000 AND "tax_deductions"."housing_rent" BETWEEN 0 AND 150000 AND "tax_deductions"."elderly_support" BETWEEN 0 AND 300000 AND ("tax_deductions"."housing_loan_interest" = 0 OR "tax_deductions"."housing_rent" = 0))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tax_deductions_employee_year_unique` ON `tax_deductions` (`employee_id`,`year`);--> statement-breakpoint
ALTER TABLE `payslips` ADD `scheme_id` integer REFERENCES contribution_schemes(id) ON DELETE restrict;--> statement-breakpoint
ALTER TABLE `payslips` ADD `tax_deduction_id` integer REFERENCES tax_deductions(id) ON DELETE restrict;--> statement-breakpoint
UPDATE `pay_profiles` SET `scheme_id` = NULL WHERE `scheme_id` IS NOT NULL;--> statement-breakpoint
CREATE TRIGGER `pay_profiles_scheme_insert` BEFORE INSERT ON `pay_profiles`
WHEN NEW.`scheme_id` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `contribution_schemes` WHERE `id` = NEW.`scheme_id`)
BEGIN SELECT RAISE(ABORT, 'FOREIGN KEY constraint failed'); END;--> statement-breakpoint
CREATE TRIGGER `pay_profiles_scheme_update` BEFORE UPDATE OF `scheme_id` ON `pay_profiles`
WHEN NEW.`scheme_id` IS NOT NULL AND NOT EXISTS (SELECT 1 FROM `contribution_schemes` WHERE `id` = NEW.`scheme_id`)
BEGIN SELECT RAISE(ABORT, 'FOREIGN KEY constraint failed'); END;--> statement-breakpoint
CREATE TRIGGER `contribution_schemes_profiles_delete` BEFORE DELETE ON `contribution_schemes`
WHEN EXISTS (SELECT 1 FROM `pay_profiles` WHERE `scheme_id` = OLD.`id`)
BEGIN SELECT RAISE(ABORT, 'FOREIGN KEY constraint failed'); END;
