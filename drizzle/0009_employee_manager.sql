ALTER TABLE `employees` ADD `manager_id` integer REFERENCES employees(id);--> statement-breakpoint
CREATE INDEX `employees_manager_idx` ON `employees` (`manager_id`);