CREATE TABLE `employee_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`employee_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`linked_at` integer NOT NULL,
	`unlinked_at` integer,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "employee_links_period_check" CHECK("employee_links"."unlinked_at" IS NULL OR "employee_links"."unlinked_at" >= "employee_links"."linked_at")
);
--> statement-breakpoint
CREATE INDEX `employee_links_user_employee_idx` ON `employee_links` (`user_id`,`employee_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `employee_links_open_employee_unique` ON `employee_links` (`employee_id`) WHERE unlinked_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `employee_links_open_user_unique` ON `employee_links` (`user_id`) WHERE unlinked_at IS NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `created_by` integer REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `leave_requests` ADD `created_by` integer REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `leave_requests` ADD `linked_user_id` integer REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `leave_requests` ADD `approver_id` integer REFERENCES employees(id);--> statement-breakpoint
CREATE INDEX `leave_requests_approver_status_idx` ON `leave_requests` (`approver_id`,`status`);--> statement-breakpoint
ALTER TABLE `attendance_corrections` ADD `linked_user_id` integer REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `attendance_corrections` ADD `approver_id` integer REFERENCES employees(id);--> statement-breakpoint
CREATE INDEX `attendance_corrections_approver_status_idx` ON `attendance_corrections` (`approver_id`,`status`);