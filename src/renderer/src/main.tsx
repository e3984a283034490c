import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

/** The app frame; the screens (Connect, Catalog, Settings) come with the IPC contract. */
function App() {
  const [info, setInfo] = useState<{ version: string; sandboxBaseUrl: string | null } | null>(null);
  useEffect(() => {
    void window.orderDesk.info().then(setInfo);
  }, []);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 32 }}>
      <h1>Order Desk</h1>
      <p>
        {info
          ? `Version ${info.version}. Embedded sandbox: ${info.sandboxBaseUrl ?? 'not running'}`
          : 'Starting…'}
      </p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
