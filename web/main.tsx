import { createRoot } from 'react-dom/client';

function Placeholder() {
  return <main data-testid="app-root"><h1>Hookwire</h1><p>The editor is on its way.</p></main>;
}

createRoot(document.getElementById('root')!).render(<Placeholder />);
