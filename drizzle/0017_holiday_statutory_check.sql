PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_calendar_days` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`date` text NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`statutory` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "calendar_days_kind_check" CHECK("__new_calendar_days"."kind" IN ('holiday', 'workday')),
	CONSTRAINT "calendar_days_statutory_check" CHECK("__new_calendar_days"."statutory" = 0 OR "__new_calendar_days"."kind" = 'holiday'),
	CONSTRAINT "calendar_days_date_check" CHECK("__new_calendar_days"."date" GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]')
);
--> statement-breakpoint
INSERT INTO `__new_calendar_days`("id", "company_id", "date", "kind", "name", "statutory", "created_at", "updated_at") SELECT "id", "company_id", "date", "kind", "name", "statutory", "created_at", "updated_at" FROM `calendar_days`;--> statement-breakpoint
DROP TABLE `calendar_days`;--> statement-breakpoint
ALTER TABLE `__new_calendar_days` RENAME TO `calendar_days`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_days_company_date_unique` ON `calendar_days` (`company_id`,`date`);