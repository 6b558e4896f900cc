ALTER TABLE `attendance_records` ADD `group_id` integer;--> statement-breakpoint
ALTER TABLE `attendance_records` ADD `shift_start` integer;--> statement-breakpoint
ALTER TABLE `attendance_records` ADD `shift_end` integer;--> statement-breakpoint
ALTER TABLE `attendance_records` ADD `work_date_end` integer;--> statement-breakpoint
ALTER TABLE `attendance_records` ADD `break_start` integer;--> statement-breakpoint
ALTER TABLE `attendance_records` ADD `break_end` integer;--> statement-breakpoint
ALTER TABLE `attendance_records` ADD `late_grace_period` integer;--> statement-breakpoint
ALTER TABLE `attendance_records` ADD `early_grace_period` integer;--> statement-breakpoint
ALTER TABLE `attendance_records` ADD `required_work_hours` real;--> statement-breakpoint
ALTER TABLE `attendance_records` ADD `flexible_time` integer;--> statement-breakpoint
ALTER TABLE `attendance_records` ADD `is_work_day` integer;--> statement-breakpoint
CREATE INDEX `attendance_records_open_idx` ON `attendance_records` (`employee_id`,`work_date_end`) WHERE clock_in_time IS NOT NULL AND clock_out_time IS NULL AND status <> 4;--> statement-breakpoint
-- added by hand (a data backfill, not generated): records written before this migration take the group of their rule
UPDATE `attendance_records` SET `group_id` = (SELECT `group_id` FROM `attendance_rules` WHERE `attendance_rules`.`id` = `attendance_records`.`rule_id`) WHERE `rule_id` IS NOT NULL;