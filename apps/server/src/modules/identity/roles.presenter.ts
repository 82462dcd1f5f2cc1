import type { Role } from '@telemedicina/shared/admin';
import type { RoleWithGrants } from './roles.repository.js';

export function presentRoleWithGrants(role: RoleWithGrants): Role {
  return {
    id: role.id,
    key: role.key,
    name: { es: role.nameEs, en: role.nameEn },
    system: role.isSystem,
    permissions: [...role.permissions],
    userCount: role.userCount,
    createdAt: role.createdAt.toISOString(),
  };
}
