import { createRoot } from 'react-dom/client';
import '@fontsource-variable/inter';
import '@fontsource-variable/jetbrains-mono';
import '@xyflow/react/dist/style.css';
import './styles/app.css';
import { App } from './App.tsx';
import './devtools.ts';

createRoot(document.getElementById('root')!).render(<App />);
