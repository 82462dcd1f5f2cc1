-- The admin user list: sort by last sign-in with never-signed-in users as the oldest (both directions from
-- one index), filter or sort by status in name order, filter by role on the users row (role_keys).
DROP INDEX "users_status_idx";--> statement-breakpoint
DROP INDEX "users_last_sign_in_at_id_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "role_keys" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "users_status_name_id_idx" ON "users" USING btree ("status","name","id");--> statement-breakpoint
CREATE INDEX "users_role_keys_idx" ON "users" USING gin ("role_keys");--> statement-breakpoint
CREATE INDEX "users_last_sign_in_at_id_idx" ON "users" USING btree ("last_sign_in_at" NULLS FIRST,"id");--> statement-breakpoint
-- users.role_keys mirrors user_roles (the source of truth) so the admin list can filter by role with
-- an array test on the row it already reads. Statement-level triggers with transition tables: one
-- UPDATE per statement, however many rows it touched, so a set-based import stays set-based.
CREATE FUNCTION users_sync_role_keys() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'roles' THEN
    UPDATE users u SET role_keys = array_replace(u.role_keys, changed.old_key, changed.new_key)
    FROM (SELECT o.key AS old_key, n.key AS new_key FROM removed_rows o JOIN added_rows n ON n.id = o.id
          WHERE o.key <> n.key) AS changed
    WHERE u.role_keys @> ARRAY[changed.old_key];
  ELSIF TG_OP = 'INSERT' THEN
    UPDATE users u SET role_keys = coalesce((SELECT array_agg(r.key ORDER BY r.key) FROM user_roles ur
      JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id), '{}'::text[])
    WHERE u.id IN (SELECT user_id FROM added_rows);
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE users u SET role_keys = coalesce((SELECT array_agg(r.key ORDER BY r.key) FROM user_roles ur
      JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id), '{}'::text[])
    WHERE u.id IN (SELECT user_id FROM removed_rows);
  ELSE
    UPDATE users u SET role_keys = coalesce((SELECT array_agg(r.key ORDER BY r.key) FROM user_roles ur
      JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id), '{}'::text[])
    WHERE u.id IN (SELECT user_id FROM added_rows UNION SELECT user_id FROM removed_rows);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER user_roles_sync_insert AFTER INSERT ON user_roles
  REFERENCING NEW TABLE AS added_rows FOR EACH STATEMENT EXECUTE FUNCTION users_sync_role_keys();
--> statement-breakpoint
CREATE TRIGGER user_roles_sync_delete AFTER DELETE ON user_roles
  REFERENCING OLD TABLE AS removed_rows FOR EACH STATEMENT EXECUTE FUNCTION users_sync_role_keys();
--> statement-breakpoint
CREATE TRIGGER user_roles_sync_update AFTER UPDATE ON user_roles
  REFERENCING OLD TABLE AS removed_rows NEW TABLE AS added_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_sync_role_keys();
--> statement-breakpoint
CREATE TRIGGER roles_sync_key_update AFTER UPDATE ON roles
  REFERENCING OLD TABLE AS removed_rows NEW TABLE AS added_rows
  FOR EACH STATEMENT EXECUTE FUNCTION users_sync_role_keys();
--> statement-breakpoint
UPDATE users u SET role_keys = coalesce((SELECT array_agg(r.key ORDER BY r.key) FROM user_roles ur
  JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id), '{}'::text[]);
