-- CONTRACT §15 on data made before it: today's links count as held since the beginning, and each
-- request is taken as made by the account linked to its employee now, decided by today's routing.
INSERT INTO `employee_links` (`employee_id`, `user_id`, `linked_at`, `unlinked_at`)
SELECT `id`, `user_id`, 0, NULL FROM `employees` WHERE `user_id` IS NOT NULL;
--> statement-breakpoint
UPDATE `leave_requests` SET
  `linked_user_id` = (SELECT e.`user_id` FROM `employees` e WHERE e.`id` = `leave_requests`.`employee_id`),
  `created_by` = (SELECT e.`user_id` FROM `employees` e WHERE e.`id` = `leave_requests`.`employee_id`),
  `approver_id` = (
    SELECT coalesce(m.`id`, gm.`id`)
    FROM `employees` e
    LEFT JOIN `employees` m ON m.`id` = e.`manager_id` AND m.`status` = 1 AND m.`id` <> e.`id`
    LEFT JOIN `attendance_group_members` agm ON agm.`employee_id` = e.`id`
    LEFT JOIN `attendance_groups` g ON g.`id` = agm.`group_id`
    LEFT JOIN `employees` gm ON gm.`id` = g.`manager_id` AND gm.`status` = 1 AND gm.`id` <> e.`id`
    WHERE e.`id` = `leave_requests`.`employee_id`
  );
--> statement-breakpoint
UPDATE `attendance_corrections` SET
  `linked_user_id` = (SELECT e.`user_id` FROM `employees` e WHERE e.`id` = `attendance_corrections`.`employee_id`),
  `approver_id` = (
    SELECT coalesce(m.`id`, gm.`id`)
    FROM `employees` e
    LEFT JOIN `employees` m ON m.`id` = e.`manager_id` AND m.`status` = 1 AND m.`id` <> e.`id`
    LEFT JOIN `attendance_group_members` agm ON agm.`employee_id` = e.`id`
    LEFT JOIN `attendance_groups` g ON g.`id` = agm.`group_id`
    LEFT JOIN `employees` gm ON gm.`id` = g.`manager_id` AND gm.`status` = 1 AND gm.`id` <> e.`id`
    WHERE e.`id` = `attendance_corrections`.`employee_id`
  );
