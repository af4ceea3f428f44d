import { t } from '../ui-text';

/** A model as the journal or a task record names it: `pageModel` is set for the page's own model. */
export interface NamedModel {
  model: string;
  pageModel?: string | undefined;
}

/**
 * The name the side panel shows for a model: the page's own model in the reader's language (with the
 * model the page names, when it names one), any other by its label.
 *
 * @example
 * modelName({ model: "the page's own model · gpt-4o", pageModel: 'gpt-4o' }); // '页面自己的模型 · gpt-4o' in Chinese
 */
export function modelName({ model, pageModel }: NamedModel): string {
  if (pageModel === undefined) return model;
  return pageModel === '' ? t('sidepanel_model_page') : t('sidepanel_model_page_named', pageModel);
}
