import { randomUUID } from 'node:crypto';
import { DEFAULTS } from '../../../src/config.js';
import { LaneLoad, type Lane } from '../../../src/domain/webhook-endpoints/delivery-lanes.js';
import { DeliveryRepository, type ClaimLimits, type LaneLimits } from '../../../src/domain/webhook-endpoints/delivery.repository.js';
import { expectStatus } from '../../support/fixtures.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

/**
 * CONTRACT §18 (fair webhooks, between owners first): who a claim serves, read off the claim
 * itself on a database whose jobs this test writes. The app's own delivery worker is stopped, so
 * that nothing but these claims takes the jobs.
 */

let t: TestApp;
let repository: DeliveryRepository;
beforeAll(async () => {
  t = await startTestApp({ webhooks: { ...DEFAULTS.webhooks, allowPrivate: true } });
  await t.app.services.webhookDeliveries.stop(0);
  repository = new DeliveryRepository(t.db);
});
afterAll(() => t.close());
beforeEach(() => t.db.query(`DELETE FROM webhook_jobs`));

interface Owner {
  ownerId: string;
  /** Each project's id and endpoint ids. */
  projects: { projectId: number; endpoints: string[] }[];
}

let owners = 0;
/** A new owner with `projects` projects of `endpoints` endpoints each (never called: no worker runs). */
async function newOwner(projects: number, endpoints: number): Promise<Owner> {
  const key = await t.issueKey(`claims-${++owners}`, 'enterprise');
  const owner: Owner = { ownerId: '', projects: [] };
  for (let i = 0; i < projects; i++) {
    const { id: projectId } = await expectStatus(t.request('POST', '/projects', { key, body: { name: `P${i}` } }), 201);
    const ids: string[] = [];
    for (let e = 0; e < endpoints; e++) ids.push((await expectStatus(t.request('POST', '/webhook-endpoints', { key, body: { projectId, url: `http://127.0.0.1:9/${projectId}/${e}` } }), 201)).id);
    owner.projects.push({ projectId, endpoints: ids });
  }
  [{ ownerId: owner.ownerId }] = await t.db.query<{ ownerId: string }>(`SELECT owner_id AS "ownerId" FROM projects WHERE id = $1`, [owner.projects[0].projectId]);
  return owner;
}

/** `jobs` due jobs for each endpoint of the owner, fallen due `ageSeconds` ago. */
async function dueJobs(owner: Owner, jobs: number, ageSeconds: number): Promise<void> {
  await t.db.query(
    `INSERT INTO webhook_jobs (endpoint_id, project_id, event_id, stream_pos, next_attempt_at)
     SELECT e.endpoint_id, e.project_id, gen_random_uuid(), 0, now() - make_interval(secs => $3)
       FROM unnest($1::uuid[], $2::int[]) AS e (endpoint_id, project_id), generate_series(1, $4)`,
    [owner.projects.flatMap((p) => p.endpoints), owner.projects.flatMap((p) => p.endpoints.map(() => p.projectId)), ageSeconds, jobs],
  );
}

const lane = (limits: Partial<LaneLimits> = {}): LaneLimits => ({ slots: 24, perOwner: 6, load: new LaneLoad(), ...limits });
const limits = (lanes: Partial<Record<Lane, Partial<LaneLimits>>>): ClaimLimits => ({ perEndpoint: 4, lanes: { prompt: lane(lanes.prompt), failing: lane(lanes.failing) } });
const claim = async (l: ClaimLimits) => (await repository.claim(l, randomUUID(), 60_000)).jobs;
const loaded = (ownerId: string, projectId: number, n: number): LaneLoad => {
  const load = new LaneLoad();
  for (let i = 0; i < n; i++) load.add(ownerId, projectId, 1);
  return load;
};

describe('claims share attempts between owners first, then between an owner’s projects (CONTRACT §18)', () => {
  it("an owner with many projects cannot starve another owner's project: owners take turns before projects do", async () => {
    const many = await newOwner(8, 2);
    const single = await newOwner(1, 1);
    // the many-project owner's jobs all fell due long before the other's
    await dueJobs(many, 4, 60);
    await dueJobs(single, 1, 0);
    const jobs = await claim(limits({ prompt: { slots: 4, perOwner: 4 } }));
    expect(jobs).toHaveLength(4);
    expect(jobs.filter((j) => j.ownerId === single.ownerId)).toHaveLength(1);
    // the many-project owner's three: its projects in turn, one each
    const theirs = jobs.filter((j) => j.ownerId === many.ownerId);
    expect(new Set(theirs.map((j) => j.projectId)).size).toBe(3);
  });

  it('an owner at its share of a lane gets no more there; another owner is served', async () => {
    const busy = await newOwner(4, 5);
    const other = await newOwner(1, 1);
    await dueJobs(busy, 4, 60);
    await dueJobs(other, 2, 0);
    const load = loaded(busy.ownerId, busy.projects[0].projectId, 6);
    const jobs = await claim(limits({ prompt: { slots: 18, perOwner: 6, load } }));
    expect(jobs.map((j) => j.ownerId)).toEqual([other.ownerId, other.ownerId]);
  });

  it("an owner's projects take turns, counting what each already has in flight", async () => {
    const owner = await newOwner(2, 1);
    const [busy, idle] = owner.projects;
    await dueJobs(owner, 4, 0);
    const jobs = await claim(limits({ prompt: { slots: 2, perOwner: 10, load: loaded(owner.ownerId, busy.projectId, 2) } }));
    // the busy project's turns are numbered from 3: the idle one's 1 and 2 come first
    expect(jobs.map((j) => j.projectId)).toEqual([idle.projectId, idle.projectId]);
  });
});

describe('failing endpoints are served apart from prompt ones (CONTRACT §18)', () => {
  it('a failing endpoint takes only the failing lane, a prompt one only the prompt lane; answering promptly moves it back', async () => {
    const failing = await newOwner(2, 2);
    const prompt = await newOwner(1, 1);
    await dueJobs(failing, 4, 60);
    await dueJobs(prompt, 1, 0);
    const failingEndpoints = failing.projects.flatMap((p) => p.endpoints);
    await repository.markLanes(failingEndpoints, []);
    await repository.markLanes(failingEndpoints, []); // again: no change, no error

    // the prompt lane full: the failing owner's jobs are not taken in its stead
    const promptOnly = await claim(limits({ prompt: { slots: 4, perOwner: 4 }, failing: { slots: 0 } }));
    expect(promptOnly.map((j) => [j.ownerId, j.lane])).toEqual([[prompt.ownerId, 'prompt']]);
    const failingOnly = await claim(limits({ prompt: { slots: 0 }, failing: { slots: 3, perOwner: 3 } }));
    expect(failingOnly).toHaveLength(3);
    for (const job of failingOnly) expect([job.ownerId, job.lane]).toEqual([failing.ownerId, 'failing']);

    // a late prompt answer from an attempt that began before the endpoint was marked failing (another
    // instance's, say) leaves the newer failing mark standing
    const markedAt = (await t.db.query<{ at: Date }>(`SELECT min(failing_since) AS at FROM webhook_endpoints WHERE id = ANY ($1::uuid[])`, [failingEndpoints]))[0].at;
    await repository.markLanes([], failingEndpoints.map((id) => ({ id, since: new Date(markedAt.getTime() - 1_000) })));
    const still = await claim(limits({ prompt: { slots: 4, perOwner: 4 }, failing: { slots: 0 } }));
    expect(still).toEqual([]);

    await repository.markLanes([], failingEndpoints.map((id) => ({ id, since: new Date() })));
    const back = await claim(limits({ prompt: { slots: 4, perOwner: 4 }, failing: { slots: 4 } }));
    expect(back).toHaveLength(4);
    for (const job of back) expect(job.lane).toBe('prompt');
  });

  it('every lane keeps the cap of 4 attempts in flight to one endpoint', async () => {
    const owner = await newOwner(1, 1);
    await dueJobs(owner, 10, 0);
    const first = await claim(limits({ prompt: { slots: 2, perOwner: 2 } }));
    await repository.markLanes(owner.projects[0].endpoints, []);
    const second = await claim(limits({ prompt: { slots: 24, perOwner: 24 }, failing: { slots: 24, perOwner: 24 } }));
    expect([first.length, second.length]).toEqual([2, 2]);
  });
});
