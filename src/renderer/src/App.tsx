import { Suspense, useEffect, useRef } from 'react';
import { Link, Redirect, Route, Router, Switch, useLocation } from 'wouter';
import { useGuardedHashLocation } from './lib/navigation-guard';
import { CommandPalette } from './components/CommandPalette';
import { Header } from './components/Header';
import { Sidebar } from './components/Sidebar';
import { StoreBanners } from './components/StoreBanners';
import { Loading } from './components/States';
import { Toasts } from './components/Toasts';
import { useUndoShortcuts } from './components/use-undo-shortcuts';
import { useHeadingFocusOnNavigate } from './lib/heading-focus';
import { startPath, useScreenShortcuts } from './lib/shortcuts';
import { useAppliedTheme } from './lib/theme';
import { useAppStore } from './stores/app-store';
import { subscribeToEvents } from './stores/main-events';
import { commitPendingDeletesOnLeave } from './stores/pending-delete-store';
import { lazyScreen } from './lib/lazy-screen';
import { reportPresence } from './lib/presence';

const DashboardScreen = lazyScreen(() => import('./screens/dashboard/DashboardScreen'));
const ProtocolsScreen = lazyScreen(() => import('./screens/protocols/ProtocolsScreen'));
const ProtocolImportScreen = lazyScreen(() => import('./screens/protocols/ImportScreen'));
const ProtocolEditorScreen = lazyScreen(() => import('./screens/editor/ProtocolEditorScreen'));
const OrdersScreen = lazyScreen(() => import('./screens/orders/OrdersScreen'));
const BatchesScreen = lazyScreen(() => import('./screens/batches/BatchesScreen'));
const RefillsScreen = lazyScreen(() => import('./screens/refills/RefillsScreen'));
const PatientsScreen = lazyScreen(() => import('./screens/patients/PatientsScreen'));
const PatientScreen = lazyScreen(() => import('./screens/patients/PatientScreen'));
const SharedIdsScreen = lazyScreen(() => import('./screens/patients/SharedIdsScreen'));
const ActivityScreen = lazyScreen(() => import('./screens/activity/ActivityScreen'));
const ConflictsScreen = lazyScreen(() => import('./screens/conflicts/ConflictsScreen'));
const CatalogScreen = lazyScreen(() => import('./screens/catalog/CatalogScreen'));
const SettingsScreen = lazyScreen(() => import('./screens/settings/SettingsScreen'));
const PracticeScreen = lazyScreen(() => import('./screens/practice/PracticeScreen'));
const ConnectScreen = lazyScreen(() => import('./screens/connect/ConnectScreen'));
const ScheduleScreen = lazyScreen(() => import('./screens/schedule/ScheduleScreen'));
const SchedulesScreen = lazyScreen(() => import('./screens/schedule/SchedulesScreen'));
const SCREENS = [
  DashboardScreen,
  ProtocolsScreen,
  ProtocolEditorScreen,
  ProtocolImportScreen,
  OrdersScreen,
  BatchesScreen,
  RefillsScreen,
  PatientsScreen,
  PatientScreen,
  ActivityScreen,
  ConflictsScreen,
  CatalogScreen,
  SettingsScreen,
  ConnectScreen,
  PracticeScreen,
  ScheduleScreen,
  SchedulesScreen,
];

function SkipLink({ target }: { target: React.RefObject<HTMLElement | null> }) {
  // A plain "#main" link would change the hash route, so focus the main landmark directly.
  return (
    <a
      href="#main-content"
      className="skip-link"
      onClick={(event) => {
        event.preventDefault();
        target.current?.focus();
      }}
    >
      Skip to content
    </a>
  );
}

function NotFound() {
  return (
    <div className="screen">
      <h1>Page not found</h1>
      <p>
        There is nothing at this address. <Link href="/protocols">Go to the protocols</Link>.
      </p>
    </div>
  );
}

/** The everyday frame: sidebar, header, and the screen in the main landmark. */
function Shell() {
  const main = useRef<HTMLElement>(null);
  const [location, navigate] = useLocation();
  const startScreen = useAppStore((s) => s.startScreen);
  useScreenShortcuts(navigate);
  useUndoShortcuts();
  useHeadingFocusOnNavigate(location, main);
  useEffect(() => {
    // Each screen starts at its top.
    main.current?.scrollTo?.(0, 0);
  }, [location]);
  return (
    <>
      <SkipLink target={main} />
      <div className="shell">
        <Sidebar />
        <div className="shell-body">
          <Header />
          <StoreBanners />
          <main id="main-content" ref={main} tabIndex={-1} className="main">
            <Suspense fallback={<Loading label="Loading…" />}>
              <Switch>
                <Route path="/">
                  <Redirect to={startPath(startScreen)} replace />
                </Route>
                <Route path="/dashboard">
                  <DashboardScreen />
                </Route>
                <Route path="/protocols/new">
                  <ProtocolEditorScreen mode="new" />
                </Route>
                <Route path="/protocols/import">
                  <ProtocolImportScreen />
                </Route>
                <Route path="/protocols/:localId/schedule">
                  {(params) => (
                    <ScheduleScreen source={{ kind: 'protocol', localId: params.localId }} />
                  )}
                </Route>
                <Route path="/protocols/:localId">
                  {(params) => <ProtocolEditorScreen mode="edit" localId={params.localId} />}
                </Route>
                <Route path="/protocols">
                  <ProtocolsScreen />
                </Route>
                <Route path="/new-order">
                  <ProtocolEditorScreen mode="order" />
                </Route>
                <Route path="/orders/schedules">
                  <SchedulesScreen />
                </Route>
                <Route path="/orders/:orderId/schedule">
                  {(params) => (
                    <ScheduleScreen source={{ kind: 'order', orderId: params.orderId }} />
                  )}
                </Route>
                <Route path="/orders" nest>
                  <OrdersScreen />
                </Route>
                <Route path="/batches" nest>
                  <BatchesScreen />
                </Route>
                <Route path="/refills/:day">{(params) => <RefillsScreen day={params.day} />}</Route>
                <Route path="/refills">
                  <RefillsScreen />
                </Route>
                <Route path="/patients/:sourceId/:person">
                  {(params) => <PatientScreen sourceId={params.sourceId} person={params.person} />}
                </Route>
                <Route path="/patients/:sourceId">
                  {(params) => <PatientScreen sourceId={params.sourceId} />}
                </Route>
                <Route path="/patient-ids">
                  <SharedIdsScreen />
                </Route>
                <Route path="/patients">
                  <PatientsScreen />
                </Route>
                <Route path="/activity">
                  <ActivityScreen />
                </Route>
                <Route path="/conflicts">
                  <ConflictsScreen />
                </Route>
                <Route path="/catalog" nest>
                  <CatalogScreen />
                </Route>
                <Route path="/settings">
                  <SettingsScreen />
                </Route>
                <Route path="/connect">
                  <ConnectScreen firstRun={false} />
                </Route>
                <Route path="/practice">
                  <PracticeScreen />
                </Route>
                <Route>
                  <NotFound />
                </Route>
              </Switch>
            </Suspense>
          </main>
        </div>
      </div>
      <CommandPalette />
    </>
  );
}

/** First run (no connection yet): only the Connect screen makes sense. */
function FirstRun() {
  const main = useRef<HTMLElement>(null);
  return (
    <>
      <SkipLink target={main} />
      <header className="first-run-header">
        <span className="brand-mark" aria-hidden="true">
          OD
        </span>
        <span className="brand-name">Order Desk</span>
      </header>
      <StoreBanners />
      <main id="main-content" ref={main} tabIndex={-1} className="main first-run">
        <Suspense fallback={<Loading label="Loading…" />}>
          <ConnectScreen firstRun />
        </Suspense>
      </main>
    </>
  );
}

export function App() {
  const status = useAppStore((s) => s.status);
  const loadError = useAppStore((s) => s.loadError);
  const connected = useAppStore((s) => s.connection !== null);
  const theme = useAppStore((s) => s.theme);
  const load = useAppStore((s) => s.load);
  useAppliedTheme(theme);

  useEffect(() => {
    const unsubscribe = subscribeToEvents();
    const stopCommitOnLeave = commitPendingDeletesOnLeave();
    void load();
    return () => {
      unsubscribe();
      stopCommitOnLeave();
    };
  }, [load]);

  // Whether the window is shown and in use sets how often main reads order statuses.
  useEffect(() => (status === 'ready' ? reportPresence() : undefined), [status]);

  useEffect(() => {
    // Once the app is up, every screen's code is fetched, so moving between screens never waits.
    // A chunk that fails to load here is fetched again when its screen is opened.
    if (status === 'ready') for (const screen of SCREENS) screen.preload().catch(() => undefined);
  }, [status]);

  if (status === 'loading') {
    return (
      <main className="main boot">
        <Loading label="Starting Order Desk…" />
      </main>
    );
  }
  if (status === 'failed') {
    return (
      <main className="main boot">
        <div className="screen screen-narrow">
          <h1>Order Desk could not start</h1>
          <p role="alert">{loadError}</p>
          <div>
            <button type="button" className="button button-primary" onClick={() => void load()}>
              Try again
            </button>
          </div>
        </div>
      </main>
    );
  }
  return (
    <Router hook={useGuardedHashLocation}>
      {connected ? <Shell /> : <FirstRun />}
      <Toasts />
    </Router>
  );
}
