DROP INDEX `leave_requests_employee_dates_idx`;--> statement-breakpoint
CREATE INDEX `leave_requests_employee_status_dates_idx` ON `leave_requests` (`employee_id`,`status`,`start_date`,`end_date`);