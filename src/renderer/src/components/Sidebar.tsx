import {
  CalendarClock,
  ClipboardList,
  GraduationCap,
  GitCompare,
  Inbox,
  Layers,
  Package,
  Plug,
  ScrollText,
  Settings,
  Users,
} from 'lucide-react';
import type { KeyboardEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { isMac, useAppStore } from '../stores/app-store';
import { MORE_SCREENS, SCREENS } from '../lib/shortcuts';
import { usePractice } from '../lib/practice';

const ICONS = {
  '/protocols': ClipboardList,
  '/orders': Inbox,
  '/batches': Layers,
  '/refills': CalendarClock,
  '/conflicts': GitCompare,
  '/catalog': Package,
  '/settings': Settings,
  '/connect': Plug,
  '/patients': Users,
  '/activity': ScrollText,
} as const;

/** Arrow keys move between the sidebar's links, as in any menu-like list. */
function onArrows(event: KeyboardEvent<HTMLElement>) {
  if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) return;
  const links = [...event.currentTarget.querySelectorAll<HTMLAnchorElement>('a')];
  const index = links.indexOf(document.activeElement as HTMLAnchorElement);
  if (index < 0) return;
  event.preventDefault();
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? links.length - 1
        : (index + (event.key === 'ArrowDown' ? 1 : -1) + links.length) % links.length;
  links[next]?.focus();
}

export function Sidebar() {
  const [location] = useLocation();
  const platform = useAppStore((s) => s.platform);
  const version = useAppStore((s) => s.version);
  const conflicts = useAppStore((s) => s.outbox.conflicts);
  const practice = usePractice();
  const mod = isMac(platform) ? '⌘' : 'Ctrl+';
  const modName = isMac(platform) ? 'Meta' : 'Control';
  return (
    <aside className="sidebar">
      <div className="brand" aria-hidden="true">
        <span className="brand-mark">OD</span>
        <span className="brand-name">Order Desk</span>
      </div>
      <nav aria-label="Main" onKeyDown={onArrows}>
        <ul className="nav-list">
          {SCREENS.map((screen) => {
            const Icon = ICONS[screen.path];
            const current = location === screen.path || location.startsWith(`${screen.path}/`);
            return (
              <li key={screen.path}>
                <Link
                  href={screen.path}
                  className="nav-link"
                  aria-current={current ? 'page' : undefined}
                  aria-keyshortcuts={`${modName}+${screen.key}`}
                  title={`${screen.label} (${mod}${screen.key})`}
                >
                  <Icon aria-hidden="true" size={18} />
                  <span className="nav-label">{screen.label}</span>
                  {screen.path === '/conflicts' && conflicts > 0 && (
                    <span className="nav-count" data-testid="conflicts-count">
                      {conflicts}
                      <span className="visually-hidden"> to resolve</span>
                    </span>
                  )}
                  <kbd className="nav-kbd" aria-hidden="true">
                    {mod}
                    {screen.key}
                  </kbd>
                </Link>
              </li>
            );
          })}
          {MORE_SCREENS.map((screen) => {
            const Icon = ICONS[screen.path];
            const current = location === screen.path || location.startsWith(`${screen.path}/`);
            return (
              <li key={screen.path}>
                <Link
                  href={screen.path}
                  className="nav-link"
                  aria-current={current ? 'page' : undefined}
                  title={screen.label}
                >
                  <Icon aria-hidden="true" size={18} />
                  <span className="nav-label">{screen.label}</span>
                </Link>
              </li>
            );
          })}
          {practice.enabled && (
            <li>
              <Link
                href="/practice"
                className="nav-link nav-link-practice"
                aria-current={location === '/practice' ? 'page' : undefined}
                title="Practice: the local sandbox's controls"
              >
                <GraduationCap aria-hidden="true" size={18} />
                <span className="nav-label">Practice</span>
              </Link>
            </li>
          )}
        </ul>
      </nav>
      <p className="sidebar-foot muted">
        {mod}1–{SCREENS.length} switch screens
        {version && <span className="sidebar-version">Version {version}</span>}
      </p>
    </aside>
  );
}
