-- CONTRACT §15 on data made before it: today's links count as held since the beginning, and each
-- request is taken as made by the account linked to its employee now, decided by today's routing
-- (the manager, else the group's manager, skipping anyone who has left and the employee themselves).
INSERT INTO `employee_links` (`employee_id`, `user_id`, `linked_at`, `unlinked_at`)
SELECT `id`, `user_id`, 0, NULL FROM `employees` WHERE `user_id` IS NOT NULL;
--> statement-breakpoint
CREATE TABLE `own_matters_routing` AS
SELECT e.`id` AS `employee_id`, e.`user_id` AS `user_id`, coalesce(m.`id`, gm.`id`) AS `approver_id`
FROM `employees` e
LEFT JOIN `employees` m ON m.`id` = e.`manager_id` AND m.`status` = 1 AND m.`id` <> e.`id`
LEFT JOIN `attendance_group_members` agm ON agm.`employee_id` = e.`id`
LEFT JOIN `attendance_groups` g ON g.`id` = agm.`group_id`
LEFT JOIN `employees` gm ON gm.`id` = g.`manager_id` AND gm.`status` = 1 AND gm.`id` <> e.`id`;
--> statement-breakpoint
UPDATE `leave_requests` SET
  `linked_user_id` = (SELECT r.`user_id` FROM `own_matters_routing` r WHERE r.`employee_id` = `leave_requests`.`employee_id`),
  `created_by` = (SELECT r.`user_id` FROM `own_matters_routing` r WHERE r.`employee_id` = `leave_requests`.`employee_id`),
  `approver_id` = (SELECT r.`approver_id` FROM `own_matters_routing` r WHERE r.`employee_id` = `leave_requests`.`employee_id`);
--> statement-breakpoint
UPDATE `attendance_corrections` SET
  `linked_user_id` = (SELECT r.`user_id` FROM `own_matters_routing` r WHERE r.`employee_id` = `attendance_corrections`.`employee_id`),
  `approver_id` = (SELECT r.`approver_id` FROM `own_matters_routing` r WHERE r.`employee_id` = `attendance_corrections`.`employee_id`);
--> statement-breakpoint
DROP TABLE `own_matters_routing`;
