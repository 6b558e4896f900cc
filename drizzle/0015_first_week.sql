ALTER TABLE `companies` ADD `attendance_starts_on` text;--> statement-breakpoint
ALTER TABLE `attendance_records` ADD `imported` integer DEFAULT false NOT NULL;