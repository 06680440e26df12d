import { usePasswordParameters } from '../../api/users/passwords.ts'

/**
 * A set-up file of the test projects that start servers (vitest.config.ts): the staff password
 * hashes made in a test's own process use scrypt at N=2^10, r=8, p=1, about 2 ms each instead
 * of about 175 ms (api/users/passwords.ts, `usePasswordParameters`). Servers and commands that a
 * test spawns, and `api/users/passwords.test.ts`, keep the real parameters.
 */
usePasswordParameters({ N: 2 ** 10, r: 8, p: 1 })
