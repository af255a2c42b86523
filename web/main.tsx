import './zodConfig.ts';
import { createRoot } from 'react-dom/client';
import '@fontsource-variable/inter';
import '@fontsource-variable/jetbrains-mono';
import '@xyflow/react/dist/style.css';
import './styles/app.css';
import { App } from './App.tsx';
import { installDevtools } from './devtools.ts';
import { makeReplayWorker } from './debugger/replayClient.ts';
import { appDb } from './persistence/db.ts';
import { ServicesProvider } from './services/AppServices.tsx';
import { startApp } from './startApp.ts';
import { openFromCli } from './io/openFromCli.ts';
import { liveFromCli } from './io/liveFromCli.ts';

const services = startApp(appDb(), makeReplayWorker);
installDevtools(services);
// The files `hookwire ui` was given, once the workspace and the trace library have started.
void services.ready.then(() => openFromCli(services));
// `hookwire ui --live <server>`: attach the debugger to a running `hookwire serve`.
void services.ready.then(() => liveFromCli(services));

createRoot(document.getElementById('root')!).render(
  <ServicesProvider services={services}>
    <App />
  </ServicesProvider>,
);
