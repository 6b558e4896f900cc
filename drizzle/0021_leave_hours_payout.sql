-- CONTRACT §18: hourly leave types and the payout on leaving. Written by hand (drizzle-kit generate --custom):
-- leave_types and leave_requests are referenced by other tables, so they get columns and triggers, never a rebuild;
-- the ledger, which nothing references, is rebuilt for its new kind and its amount in the type's unit.
ALTER TABLE `leave_types` ADD `unit` text DEFAULT 'day' NOT NULL;--> statement-breakpoint
ALTER TABLE `leave_types` ADD `payout_on_leaving` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE TRIGGER `leave_types_unit_insert` BEFORE INSERT ON `leave_types`
WHEN NEW.`unit` NOT IN ('day', 'hour') OR NEW.`payout_on_leaving` NOT IN (0, 1) OR (NEW.`unit` = 'hour' AND NEW.`payout_on_leaving` = 1)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: leave_types_unit_check'); END;--> statement-breakpoint
CREATE TRIGGER `leave_types_unit_update` BEFORE UPDATE OF `unit`, `payout_on_leaving` ON `leave_types`
WHEN NEW.`unit` NOT IN ('day', 'hour') OR NEW.`payout_on_leaving` NOT IN (0, 1) OR (NEW.`unit` = 'hour' AND NEW.`payout_on_leaving` = 1)
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: leave_types_unit_check'); END;--> statement-breakpoint
ALTER TABLE `leave_requests` RENAME COLUMN `half_days` TO `amount`;--> statement-breakpoint
ALTER TABLE `leave_requests` ADD `start_time` text;--> statement-breakpoint
ALTER TABLE `leave_requests` ADD `end_time` text;--> statement-breakpoint
CREATE TRIGGER `leave_requests_times_insert` BEFORE INSERT ON `leave_requests`
WHEN NOT ((NEW.`start_time` IS NULL AND NEW.`end_time` IS NULL) OR (NEW.`start_time` IS NOT NULL AND NEW.`end_time` IS NOT NULL
  AND NEW.`half_day` IS NULL AND NEW.`start_date` = NEW.`end_date` AND NEW.`start_time` < NEW.`end_time`))
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: leave_requests_times_check'); END;--> statement-breakpoint
CREATE TRIGGER `leave_requests_times_update` BEFORE UPDATE OF `start_time`, `end_time`, `half_day`, `start_date`, `end_date` ON `leave_requests`
WHEN NOT ((NEW.`start_time` IS NULL AND NEW.`end_time` IS NULL) OR (NEW.`start_time` IS NOT NULL AND NEW.`end_time` IS NOT NULL
  AND NEW.`half_day` IS NULL AND NEW.`start_date` = NEW.`end_date` AND NEW.`start_time` < NEW.`end_time`))
BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: leave_requests_times_check'); END;--> statement-breakpoint
CREATE TABLE `__new_leave_ledger` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`employee_id` integer NOT NULL,
	`type_id` integer NOT NULL,
	`year` integer NOT NULL,
	`kind` text NOT NULL,
	`amount` integer NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`request_id` integer,
	`actor_id` integer,
	`event` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`type_id`) REFERENCES `leave_types`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`request_id`) REFERENCES `leave_requests`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "leave_ledger_kind_check" CHECK("__new_leave_ledger"."kind" IN ('adjustment', 'pending', 'release', 'taken', 'reversal', 'grant', 'carry', 'lapse', 'payout')),
	CONSTRAINT "leave_ledger_amount_check" CHECK("__new_leave_ledger"."amount" <> 0)
);
--> statement-breakpoint
INSERT INTO `__new_leave_ledger`("id", "employee_id", "type_id", "year", "kind", "amount", "reason", "request_id", "actor_id", "event", "created_at") SELECT "id", "employee_id", "type_id", "year", "kind", "half_days", "reason", "request_id", "actor_id", "event", "created_at" FROM `leave_ledger`;--> statement-breakpoint
DROP TABLE `leave_ledger`;--> statement-breakpoint
ALTER TABLE `__new_leave_ledger` RENAME TO `leave_ledger`;--> statement-breakpoint
CREATE INDEX `leave_ledger_balance_idx` ON `leave_ledger` (`employee_id`,`type_id`,`year`);--> statement-breakpoint
CREATE INDEX `leave_ledger_request_idx` ON `leave_ledger` (`request_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `leave_ledger_event_unique` ON `leave_ledger` (`employee_id`,`type_id`,`event`) WHERE "leave_ledger"."event" IS NOT NULL;
