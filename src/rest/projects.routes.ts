import { route, type Route } from '../http/route.js';
import type { Services } from '../services.js';
import { pagination } from '../json/page.json.js';
import { ProjectBody, projectJson } from '../json/project.json.js';
import { CreateProjectBody, ProjectIdParams, ProjectListBody, ProjectListQuery, RenameProjectBody } from './projects.schemas.js';

export function projectRoutes({ projects }: Services): Route[] {
  return [
    route({
      method: 'POST',
      path: '/projects',
      auth: 'api_key',
      body: CreateProjectBody,
      doc: {
        operationId: 'createProject',
        summary: 'Create a project (asset_id may name an asset of another of your projects, shared as primary currency)',
        tag: 'projects',
        response: { status: 201, schema: ProjectBody },
        errors: ['quota_exceeded', 'not_found'],
      },
      handler: async ({ principal, body: { asset_id, ...rest } }) => ({
        status: 201,
        body: projectJson(await projects.create(principal, { ...rest, assetId: asset_id })),
      }),
    }),
    route({
      method: 'GET',
      path: '/projects',
      auth: 'api_key',
      query: ProjectListQuery,
      doc: { operationId: 'listProjects', summary: 'Your projects, oldest first', tag: 'projects', response: { status: 200, schema: ProjectListBody }, errors: ['validation_error'] },
      handler: async ({ principal, query }) => {
        const page = await projects.list(principal, query);
        return { status: 200, body: { projects: page.items.map(projectJson), pagination: pagination(query.page, query.limit, page.total) } };
      },
    }),
    route({
      method: 'GET',
      path: '/projects/{id}',
      auth: 'api_key',
      params: ProjectIdParams,
      doc: { operationId: 'getProject', summary: 'One project', tag: 'projects', response: { status: 200, schema: ProjectBody }, errors: ['validation_error', 'not_found'] },
      handler: async ({ principal, params }) => ({ status: 200, body: projectJson(await projects.get(principal, params.id)) }),
    }),
    route({
      method: 'PUT',
      path: '/projects/{id}',
      auth: 'api_key',
      params: ProjectIdParams,
      body: RenameProjectBody,
      doc: { operationId: 'renameProject', summary: 'Rename a project', tag: 'projects', response: { status: 200, schema: ProjectBody }, errors: ['not_found'] },
      handler: async ({ principal, params, body }) => ({ status: 200, body: projectJson(await projects.rename(principal, params.id, body.name)) }),
    }),
  ];
}
