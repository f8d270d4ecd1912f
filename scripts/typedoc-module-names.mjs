// A TypeDoc plugin (typedoc.json `plugin`): each entry point's page is named by the
// import that reaches it (`idplatform`, `idplatform/management`, …) instead of its file
// (`index`, `management`, …).
import { Converter, ReflectionKind } from 'typedoc';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    const name = app.options.getValue('name');
    for (const module of context.project.getChildrenByKind(ReflectionKind.Module)) {
      module.name = module.name === 'index' ? name : `${name}/${module.name}`;
    }
  });
}
