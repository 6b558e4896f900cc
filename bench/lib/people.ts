/**
 * The seeded people as the load driver needs them: each employee with an access token
 * signed with the server's JWT_SECRET (no argon2 sign-in per person) and, for groups
 * that require a location, a position inside the geofence.
 */
import { createClient } from '@libsql/client'
import { systemClock } from '../../src/lib/clock'
import { createTokenService } from '../../src/modules/auth/tokens'

const TOKEN_TTL_SECONDS = 24 * 3600

export interface Person {
  employeeId: number
  token: string
  /** spread into a clock body: the rule's centre when the group requires a location, else nothing */
  position: { latitude?: number; longitude?: number }
}

/** The first `count` employees with a linked account, by employee id, signed in. */
export async function signedInEmployees(dbUrl: string, secret: string, count: number): Promise<Person[]> {
  const tokens = createTokenService(secret, systemClock, TOKEN_TTL_SECONDS)
  const client = createClient({ url: dbUrl })
  try {
    const rows = (
      await client.execute({
        sql: `SELECT e.id AS employee_id, u.id AS user_id, u.token_version,
                (SELECT r.allowed_latitude FROM attendance_rules r WHERE r.group_id = m.group_id AND r.status = 1 AND r.location_required = 1 ORDER BY r.id LIMIT 1) AS latitude,
                (SELECT r.allowed_longitude FROM attendance_rules r WHERE r.group_id = m.group_id AND r.status = 1 AND r.location_required = 1 ORDER BY r.id LIMIT 1) AS longitude
              FROM employees e
              JOIN users u ON u.id = e.user_id
              LEFT JOIN attendance_group_members m ON m.employee_id = e.id
              ORDER BY e.id
              LIMIT ?`,
        args: [count],
      })
    ).rows
    return Promise.all(
      rows.map(async (row): Promise<Person> => ({
        employeeId: Number(row.employee_id),
        token: (await tokens.issueAccess({ id: Number(row.user_id), tokenVersion: Number(row.token_version) })).token,
        position: row.latitude === null ? {} : { latitude: Number(row.latitude), longitude: Number(row.longitude) },
      })),
    )
  } finally {
    client.close()
  }
}

/** An access token of the first enabled user holding role admin. */
export async function adminToken(dbUrl: string, secret: string): Promise<string> {
  const client = createClient({ url: dbUrl })
  try {
    const [row] = (
      await client.execute(
        "SELECT u.id, u.token_version FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id WHERE r.name = 'admin' AND u.status = 1 ORDER BY u.id LIMIT 1",
      )
    ).rows
    if (!row) throw new Error('no enabled administrator in the seeded database')
    return (
      await createTokenService(secret, systemClock, TOKEN_TTL_SECONDS).issueAccess({
        id: Number(row.id),
        tokenVersion: Number(row.token_version),
      })
    ).token
  } finally {
    client.close()
  }
}
