import type { Principal } from '../auth/api-key.service.js';
import { notFound } from '../errors.js';
import type { OwnershipService } from '../ownership/ownership.service.js';
import { ProjectIdRule, UuidRule } from '../shared/ids.js';
import { offsetOf, PageRules, type Page } from '../shared/paging.js';
import { checkField, checkInput } from '../shared/validation.js';
import type { UrlGuard } from './url-guard.js';
import type { WebhookEndpointRepository } from './webhook-endpoint.repository.js';
import { CreateEndpointRules, endpointQuotaExceeded, MAX_ENDPOINTS_PER_PROJECT } from './webhook-endpoint.rules.js';
import { EVENT_TYPES, type CreatedWebhookEndpoint, type CreateWebhookEndpointInput, type DeliveryListQuery, type EndpointListQuery, type WebhookDeliveryView, type WebhookEndpointView } from './webhook-endpoint.types.js';

const ListRules = PageRules.extend({ projectId: ProjectIdRule });

/**
 * Outbound webhook endpoints (CONTRACT §16): a project's URLs that receive its events, signed
 * with the endpoint's secret. The secret is answered once, at creation. Delivery itself is the
 * DeliveryWorker's (delivery-worker.ts).
 */
export class WebhookEndpointService {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly ownership: OwnershipService,
    private readonly guard: UrlGuard,
    private readonly newSecret: () => string,
  ) {}

  async create(principal: Principal, input: CreateWebhookEndpointInput): Promise<CreatedWebhookEndpoint> {
    const { projectId, url, types } = checkInput(CreateEndpointRules, input);
    // ownership first (CONTRACT §18): a stranger's project is 404 before its URL costs a DNS look-up
    await this.ownership.requireProject(principal, projectId);
    const target = await this.guard.check(url);
    // stored NULL when every type is wanted; otherwise in the contract's order, each once
    const wanted = types ? EVENT_TYPES.filter((type) => types.includes(type)) : null;
    const created = await this.endpoints.insert(projectId, target, wanted && wanted.length < EVENT_TYPES.length ? wanted : null, this.newSecret(), MAX_ENDPOINTS_PER_PROJECT);
    if (!created) throw endpointQuotaExceeded();
    return created;
  }

  /** A project's endpoints, oldest first (never their secrets). */
  async list(principal: Principal, query: EndpointListQuery): Promise<Page<WebhookEndpointView>> {
    const { projectId, page, limit } = checkInput(ListRules, query);
    await this.ownership.requireProject(principal, projectId);
    const { rows, total } = await this.endpoints.list(projectId, limit, offsetOf({ page, limit }));
    return { items: rows, total };
  }

  /** Deletes the endpoint: nothing more is sent to it, and its log goes with it. */
  async delete(principal: Principal, id: string): Promise<{ id: string; deleted: true }> {
    checkField('id', UuidRule, id);
    if (!(await this.endpoints.delete(principal.ownerId, id.toLowerCase()))) throw notFound('webhook endpoint', id);
    return { id: id.toLowerCase(), deleted: true };
  }

  /** The endpoint's delivery attempts, newest first. */
  async deliveries(principal: Principal, id: string, query: DeliveryListQuery): Promise<Page<WebhookDeliveryView>> {
    checkField('id', UuidRule, id);
    const { page, limit } = checkInput(PageRules, query);
    const endpoint = await this.endpoints.find(principal.ownerId, id.toLowerCase());
    if (!endpoint) throw notFound('webhook endpoint', id);
    const { rows, total } = await this.endpoints.deliveries(endpoint.id, limit, offsetOf({ page, limit }));
    return { items: rows, total };
  }
}
