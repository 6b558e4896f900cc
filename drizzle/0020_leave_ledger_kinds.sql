PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_leave_ledger` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`employee_id` integer NOT NULL,
	`type_id` integer NOT NULL,
	`year` integer NOT NULL,
	`kind` text NOT NULL,
	`half_days` integer NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`request_id` integer,
	`actor_id` integer,
	`event` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`type_id`) REFERENCES `leave_types`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`request_id`) REFERENCES `leave_requests`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "leave_ledger_kind_check" CHECK("__new_leave_ledger"."kind" IN ('adjustment', 'pending', 'release', 'taken', 'reversal', 'grant', 'carry', 'lapse')),
	CONSTRAINT "leave_ledger_half_days_check" CHECK("__new_leave_ledger"."half_days" <> 0)
);
--> statement-breakpoint
INSERT INTO `__new_leave_ledger`("id", "employee_id", "type_id", "year", "kind", "half_days", "reason", "request_id", "actor_id", "event", "created_at") SELECT "id", "employee_id", "type_id", "year", "kind", "half_days", "reason", "request_id", "actor_id", "event", "created_at" FROM `leave_ledger`;--> statement-breakpoint
DROP TABLE `leave_ledger`;--> statement-breakpoint
ALTER TABLE `__new_leave_ledger` RENAME TO `leave_ledger`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `leave_ledger_balance_idx` ON `leave_ledger` (`employee_id`,`type_id`,`year`);--> statement-breakpoint
CREATE INDEX `leave_ledger_request_idx` ON `leave_ledger` (`request_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `leave_ledger_event_unique` ON `leave_ledger` (`employee_id`,`type_id`,`event`) WHERE "leave_ledger"."event" IS NOT NULL;--> statement-breakpoint
CREATE TRIGGER `leave_types_accrual_insert` BEFORE INSERT ON `leave_types`
WHEN NEW.`accrual` NOT IN ('none', 'yearly', 'monthly') OR NEW.`carry_over_max_half_days` < 0
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: leave_types_accrual_check'); END;--> statement-breakpoint
CREATE TRIGGER `leave_types_accrual_update` BEFORE UPDATE OF `accrual`, `carry_over_max_half_days` ON `leave_types`
WHEN NEW.`accrual` NOT IN ('none', 'yearly', 'monthly') OR NEW.`carry_over_max_half_days` < 0
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: leave_types_accrual_check'); END;
