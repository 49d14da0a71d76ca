// The route plugins the app registers, in order. Each is `(app, ctx) => void`; append new ones here.
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.js';
import { documentRoutes } from './documents.js';
import { templateRoutes } from './templates.js';
import { classifierRoutes } from './classifiers.js';
import { presignedRoutes } from './presigned.js';
import { jobRoutes } from './jobs.js';
import { classifyRoutes } from './classify.js';
import { exportRoutes } from './export.js';

export type RoutePlugin = (app: FastifyInstance, ctx: ServiceContext) => void | Promise<void>;

export const routes: RoutePlugin[] = [
  documentRoutes,
  templateRoutes,
  classifierRoutes,
  presignedRoutes,
  jobRoutes,
  classifyRoutes,
  exportRoutes,
];
