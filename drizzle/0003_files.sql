CREATE TABLE `files` (
	`id` text PRIMARY KEY NOT NULL,
	`storage_key` text NOT NULL,
	`filename` text NOT NULL,
	`original_name` text NOT NULL,
	`mime_type` text NOT NULL,
	`size` integer NOT NULL,
	`etag` text NOT NULL,
	`folder` text,
	`description` text,
	`is_public` integer DEFAULT false NOT NULL,
	`uploaded_by` integer,
	`download_count` integer DEFAULT 0 NOT NULL,
	`last_accessed_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`uploaded_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `files_storage_key_unique` ON `files` (`storage_key`);--> statement-breakpoint
CREATE INDEX `files_created_idx` ON `files` (`created_at`);--> statement-breakpoint
CREATE INDEX `files_uploader_idx` ON `files` (`uploaded_by`,`created_at`);--> statement-breakpoint
CREATE INDEX `files_public_idx` ON `files` (`is_public`,`created_at`);--> statement-breakpoint
CREATE INDEX `files_folder_idx` ON `files` (`folder`,`created_at`);--> statement-breakpoint
CREATE INDEX `files_mime_idx` ON `files` (`mime_type`);