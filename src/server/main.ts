import { serve } from './serve';

// `npm start` passes --client-building while it builds the client beside the server (ADR 27)
void serve({ clientBuilding: process.argv.includes('--client-building') });
